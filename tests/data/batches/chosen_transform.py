"""Transforms chosen by a condition (CMC's ``--aug``): when every choice makes the same tensors
the sample's size is known (loader 1); when they differ it is not (loader 2). Read by
tests/test_batches.py::test_a_transform_chosen_by_a_condition (never run: torchvision does not
import beside the CPU torch of the tests)."""
import argparse
import torch
from torchvision import datasets, transforms

parser = argparse.ArgumentParser()
parser.add_argument("--aug", default="CJ")
args = parser.parse_args()
normalize = transforms.Normalize(mean=[0.5, 0.5, 0.5], std=[0.2, 0.2, 0.2])
if args.aug == "NULL":
    train_transform = transforms.Compose([transforms.RandomResizedCrop(224, scale=(0.2, 1.0)), transforms.RandomHorizontalFlip(), transforms.ToTensor(), normalize])
elif args.aug == "CJ":
    train_transform = transforms.Compose([transforms.RandomResizedCrop(224), transforms.RandomGrayscale(p=0.2), transforms.ColorJitter(0.4, 0.4, 0.4, 0.4), transforms.ToTensor(), normalize])
else:
    raise NotImplementedError(args.aug)
train = datasets.ImageFolder("train", train_transform)
loader = torch.utils.data.DataLoader(train, batch_size=256, num_workers=32)
if args.aug == "small":
    other = transforms.Compose([transforms.RandomResizedCrop(96), transforms.ToTensor()])
else:
    other = transforms.Compose([transforms.RandomResizedCrop(224), transforms.ToTensor()])
loader2 = torch.utils.data.DataLoader(datasets.ImageFolder("train", other), batch_size=256, num_workers=32)

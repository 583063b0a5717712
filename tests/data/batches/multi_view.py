# estimate kind: a multi-view transform (contrastive learning's TwoCropTransform) of fixed-size views
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import datasets, transforms


class TwoCropTransform:
    """Create two crops of the same image"""

    def __init__(self, transform):
        self.transform = transform

    def __call__(self, x):
        return [self.transform(x), self.transform(x)]


class GlobalLocal:
    def __init__(self, global_transform, local_transform):
        self.global_transform = global_transform
        self.local_transform = local_transform

    def __call__(self, image):
        return (self.global_transform(image), self.global_transform(image), self.local_transform(image))


class Images(Dataset):
    def __init__(self, files, transform=None):
        self.files = files
        self.transform = transform

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        img = Image.open(self.files[i]).convert("RGB")
        if self.transform is not None:
            img = self.transform(img)
        return img, 0


jitter = transforms.ColorJitter(0.4, 0.4, 0.4, 0.1)
train_tf = transforms.Compose([transforms.RandomResizedCrop(32), transforms.RandomHorizontalFlip(), transforms.RandomApply([jitter], p=0.8), transforms.ToTensor()])
local_tf = transforms.Compose([transforms.RandomResizedCrop(96), transforms.ToTensor()])
big_tf = transforms.Compose([transforms.RandomResizedCrop(224), transforms.ToTensor()])
cifar = DataLoader(datasets.CIFAR10("data", transform=TwoCropTransform(train_tf)), batch_size=256, num_workers=8)
folder = DataLoader(Images(["a.jpg"], transform=TwoCropTransform(train_tf)), batch_size=64, num_workers=8)
multi = DataLoader(Images(["a.jpg"], transform=GlobalLocal(big_tf, local_tf)), batch_size=32, num_workers=8)

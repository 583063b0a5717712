# estimate kind: a fixed-size torchvision transform kept on self, applied to an RGB image
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms


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
        return img


normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
train_tf = transforms.Compose([transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(), normalize])
loader = DataLoader(Images(["a.jpg"], transform=train_tf), batch_size=64, num_workers=8)
